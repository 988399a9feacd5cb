# VERDICT_SANITIZE: "" (none), "address,undefined" or "thread". Applied to every target, so
# the library, the binary and the tests agree on the runtime.

set(VERDICT_SANITIZE "" CACHE STRING "Sanitizers: empty, address,undefined, or thread")

if(VERDICT_SANITIZE)
    if(NOT VERDICT_SANITIZE MATCHES "^(address,undefined|address|undefined|thread)$")
        message(FATAL_ERROR "VERDICT_SANITIZE='${VERDICT_SANITIZE}': use address,undefined or thread")
    endif()
    # Directory-wide, so every target agrees on the runtime; a directory of programs that
    # must stay uninstrumented (the sandbox probes) clears these and re-adds them where wanted.
    set(VERDICT_SANITIZE_FLAGS -fsanitize=${VERDICT_SANITIZE} -fno-omit-frame-pointer
                               -fno-sanitize-recover=all)
    set(VERDICT_SANITIZE_LINK -fsanitize=${VERDICT_SANITIZE})
    add_compile_options(${VERDICT_SANITIZE_FLAGS})
    add_link_options(${VERDICT_SANITIZE_LINK})
    message(STATUS "verdict: sanitizers ${VERDICT_SANITIZE}")
endif()
