# verdict_warnings(<target>): the warning set of docs/style (shared guide) plus hardening.
# VERDICT_WERROR turns every warning into an error; CI always sets it.

option(VERDICT_WERROR "Treat warnings as errors" OFF)

set(VERDICT_WARNING_FLAGS
    -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 -Wvla
    -Wpointer-arith -Wcast-qual -Wwrite-strings -Wundef -Wnull-dereference
    -Wimplicit-fallthrough -Wmissing-declarations -Wold-style-definition)

# Hardening is on in every build type: fortify needs optimisation, so it is only defined
# when the build optimises (a -O0 debug build would otherwise warn on every file).
set(VERDICT_HARDEN_FLAGS -fstack-protector-strong -fstack-clash-protection -fPIE)
set(VERDICT_HARDEN_LINK -pie -Wl,-z,relro -Wl,-z,now -Wl,-z,noexecstack)

function(verdict_warnings target)
    target_compile_options(${target} PRIVATE ${VERDICT_WARNING_FLAGS} ${VERDICT_HARDEN_FLAGS})
    target_compile_definitions(${target} PRIVATE
        $<$<NOT:$<CONFIG:Debug>>:_FORTIFY_SOURCE=2>)
    if(VERDICT_WERROR)
        target_compile_options(${target} PRIVATE -Werror)
    endif()
    get_target_property(kind ${target} TYPE)
    if(kind STREQUAL "EXECUTABLE")
        target_link_options(${target} PRIVATE ${VERDICT_HARDEN_LINK})
    endif()
endfunction()
