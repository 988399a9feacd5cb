# verdict's grader for bash harnesses (docs/integrity.md), after wire.sh. It runs in a process
# of its own, as another uid than the program (runners/job.h), with the tests on its stdin: the
# program can neither read the tests nor reach this process. The tests run here, in this shell:
# the entry point, and any other command the tests name that is not found, is a function that
# sends the call over the channel (fd 4 out, fd 3 in) and prints the program's standard output
# for it and returns its status, as the program's own function would inside `$(...)`.
# VERDICT_TESTS, VERDICT_SETUP, VERDICT_ENTRY: from the bootstrap in bash.json.
# Exit status: 0 the tests ran to their end; 1 a check failed (MultiPL-E's tests `set -e`, so
# the first failing `[[ ]]` ends them; any other non-zero status of the tests counts as a
# failed check too). A program that breaks a call (its answer out of protocol, its channel
# closed, the function not there) kills this shell (SIGKILL, from whichever subshell made the
# call): the verdict is RE, and nothing the tests do after it can run.

verdict_broke() {
    printf 'verdict grader: %s\n' "$1" >&2
    kill -KILL "$VERDICT_GRADER_PID"
    exit 2
}

verdict_call() {
    local name=$1 args="" sep="" status
    shift
    for a in "$@"; do
        verdict_json_string "$a"
        args+=$sep$REPLY
        sep=,
    done
    verdict_json_string "$name"
    printf '{"call":%s,"args":[%s]}\n' "$REPLY" "$args" >&4 2>/dev/null ||
        verdict_broke "the program stopped serving (it exited or closed its channel)"
    verdict_read_line 3
    status=$?
    ((status == 1)) && verdict_broke "the program stopped serving (it exited or closed its channel)"
    ((status == 2)) && verdict_broke "the program's answer is too long"
    local re_ok='^\{"ok":\{"tuple":\["'$VERDICT_RE_STRING'",(0|[1-9][0-9]{0,2})\]\}\}$'
    local re_raise='^\{"raise":"'$VERDICT_RE_STRING'","message":"'$VERDICT_RE_STRING'"\}$'
    if [[ $REPLY =~ $re_ok ]]; then
        status=${BASH_REMATCH[3]}
        ((status <= 255)) || verdict_broke "the program answered out of protocol"
        verdict_json_unstring "${BASH_REMATCH[1]}" ||
            verdict_broke "the program answered with what is not a string"
        printf '%s' "$REPLY"
        return "$status"
    fi
    if [[ $REPLY =~ $re_raise ]]; then
        verdict_json_unstring "${BASH_REMATCH[3]}" || REPLY="?"
        verdict_broke "the program failed the call: $REPLY"
    fi
    verdict_broke "the program answered out of protocol"
}

command_not_found_handle() {
    verdict_call "$@"
}

verdict_finish() {
    local status=$?
    ((status == 0)) || exit 1
    exit 0
}

VERDICT_GRADER_PID=$$
trap verdict_finish EXIT
if [[ $VERDICT_ENTRY =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]]; then
    eval "$VERDICT_ENTRY() { verdict_call $VERDICT_ENTRY \"\$@\"; }"
fi
unset VERDICT_PROGRAM
eval "$VERDICT_SETUP"
eval "$VERDICT_TESTS"
