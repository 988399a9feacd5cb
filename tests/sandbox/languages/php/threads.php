<?php
// PHP has no threads: a forked process computes the value and hands it back as its exit code.
$pid = pcntl_fork();
if ($pid === 0) {
    exit(6 * 7);
}
pcntl_waitpid($pid, $status);
echo pcntl_wexitstatus($status), "\n";
