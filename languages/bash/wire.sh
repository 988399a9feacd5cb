# verdict's typed wire for bash (languages/wire.md), sourced before grader.sh (the grader) and
# host.sh (the program's side). bash has one kind of value, the string, and a function's result
# is its standard output and its exit status: a call's arguments cross as a list of strings, its
# answer as {"ok":{"tuple":[STDOUT,STATUS]}}. Only strings and small integers are encoded and
# decoded here; anything else is out of protocol. No value is ever evaluated.

VERDICT_LINE_MAX=67108864

# verdict_json_string STRING: sets REPLY to STRING as a JSON string (UTF-8 kept as it is).
verdict_json_string() {
    local s=$1 c
    s=${s//\\/\\\\}
    s=${s//\"/\\\"}
    s=${s//$'\n'/\\n}
    s=${s//$'\t'/\\t}
    s=${s//$'\r'/\\r}
    if [[ $s == *[$'\x01'-$'\x1f\x7f']* ]]; then
        for c in 01 02 03 04 05 06 07 08 0b 0c 0e 0f 10 11 12 13 14 15 16 17 18 19 1a 1b 1c 1d 1e 1f 7f; do
            printf -v REPLY "\\x$c"
            s=${s//"$REPLY"/\\u00$c}
        done
    fi
    REPLY="\"$s\""
}

# verdict_json_unstring TEXT: TEXT is the inside of a JSON string (no quotes); sets REPLY to the
# string it says, or returns 1 when it is not one (a raw control character, a bad escape, \u0000
# or a surrogate, which bash cannot hold).
verdict_json_unstring() {
    local rest=$1 out="" c hex code
    if [[ $rest == *[$'\x01'-$'\x1f']* ]]; then
        return 1
    fi
    while [[ $rest == *\\* ]]; do
        out+=${rest%%\\*}
        rest=${rest#*\\}
        c=${rest:0:1}
        rest=${rest:1}
        case $c in
            '"') out+='"' ;;
            '\') out+='\' ;;
            '/') out+='/' ;;
            b) out+=$'\b' ;;
            f) out+=$'\f' ;;
            n) out+=$'\n' ;;
            r) out+=$'\r' ;;
            t) out+=$'\t' ;;
            u)
                hex=${rest:0:4}
                [[ $hex =~ ^[0-9a-fA-F]{4}$ ]] || return 1
                code=$((16#$hex))
                ((code != 0 && (code < 0xD800 || code > 0xDFFF))) || return 1
                printf -v c "\\u$hex"
                out+=$c
                rest=${rest:4}
                ;;
            *) return 1 ;;
        esac
    done
    REPLY=$out$rest
}

# verdict_read_line FD: sets REPLY to the next line read on FD (without its newline); returns 1
# when the channel closed first, 2 when the line is longer than VERDICT_LINE_MAX.
verdict_read_line() {
    REPLY=""
    local line
    if ! IFS= read -r -d $'\n' -n "$VERDICT_LINE_MAX" -u "$1" line; then
        return 1
    fi
    if ((${#line} >= VERDICT_LINE_MAX)); then
        return 2
    fi
    REPLY=$line
}

# A JSON string's inside, as a regular expression (for =~): escapes and any other character.
VERDICT_RE_STRING='(([^"\\]|\\.)*)'
