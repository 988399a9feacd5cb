# VERDICT_SANITIZE: "" (none), "address,undefined" or "thread". Applied to every target, so
# the library, the binary and the tests agree on the runtime.

set(VERDICT_SANITIZE "" CACHE STRING "Sanitizers: empty, address,undefined, or thread")

if(VERDICT_SANITIZE)
    if(NOT VERDICT_SANITIZE MATCHES "^(address,undefined|address|undefined|thread)$")
        message(FATAL_ERROR "VERDICT_SANITIZE='${VERDICT_SANITIZE}': use address,undefined or thread")
    endif()
    add_compile_options(-fsanitize=${VERDICT_SANITIZE} -fno-omit-frame-pointer
                        -fno-sanitize-recover=all)
    add_link_options(-fsanitize=${VERDICT_SANITIZE})
    message(STATUS "verdict: sanitizers ${VERDICT_SANITIZE}")
endif()
