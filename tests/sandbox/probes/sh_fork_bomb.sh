# Attacks: the classic shell fork bomb (as a POSIX sh function). Contained: pids.max, then killed.
# dash refuses ':' as a function name, hence 'bomb'. Fork errors are silenced so that they cannot
# turn the run into an output-limit verdict.
exec 2>/dev/null
bomb() { bomb | bomb & }
bomb
