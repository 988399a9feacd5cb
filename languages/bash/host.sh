# The program's side of the grader's channel (runners/job.h: fd 3 in, fd 4 out), after wire.sh,
# sourced as `verdict_host.sh` at the end of the program (bash.json's join). It holds no secret
# and decides nothing: it answers each {"call":NAME,"args":[STRING,...]} by running the
# program's function NAME with those arguments inside `$(...)`, as the tests would, with
# {"ok":{"tuple":[STDOUT,STATUS]}}, or {"raise":"","message":WHY} when it cannot.

verdict_serve() {
    local re_call='^\{"call":"([A-Za-z_][A-Za-z0-9_]*)","args":\[(.*)\]\}$'
    local re_arg='^"'$VERDICT_RE_STRING'"(,|$)'
    local line name rest out status msg
    local -a args
    while verdict_read_line 3; do
        line=$REPLY
        msg=""
        if [[ $line =~ $re_call ]]; then
            name=${BASH_REMATCH[1]}
            rest=${BASH_REMATCH[2]}
            args=()
            while [[ -n $rest ]]; do
                if [[ $rest =~ $re_arg ]] && verdict_json_unstring "${BASH_REMATCH[1]}"; then
                    args+=("$REPLY")
                    rest=${rest:${#BASH_REMATCH[0]}}
                else
                    msg="a call whose arguments are not strings"
                    break
                fi
            done
            if [[ -z $msg ]] && ! declare -F "$name" >/dev/null; then
                msg="$name: no such function"
            fi
        else
            msg="a request that is not a call"
        fi
        if [[ -n $msg ]]; then
            verdict_json_string "$msg"
            printf '{"raise":"","message":%s}\n' "$REPLY" >&4
            continue
        fi
        out=$("$name" "${args[@]}")
        status=$?
        verdict_json_string "$out"
        printf '{"ok":{"tuple":[%s,%d]}}\n' "$REPLY" "$status" >&4
    done
}

verdict_serve
