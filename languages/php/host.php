// The program's side of the grader's channel (runners/job.h: fd 3 in, fd 4 out), required
// after the program's own code as `verdict_host.php` (wire.php before this, with the opening
// tag). It holds no secret and decides nothing: it answers the grader's calls, one per line
// (languages/wire.md), and the grader trusts nothing it says beyond the values it carries.
//   {"call":NAME,"args":[...]}  the program's function NAME
// The answer is {"ok":V} or {"raise":CLASS,"message":TEXT}.

(function () {
    $in = fopen("php://fd/3", "rb");
    $out = fopen("php://fd/4", "wb");
    while (($line = stream_get_line($in, VerdictWire::LINE_MAX, "\n")) !== false) {
        try {
            $m = VerdictWire::parse($line);
            $f = $m === null ? [] : get_object_vars($m);
            if (count($f) != 2 || !is_string($f["call"] ?? null) || !is_array($f["args"] ?? null))
                throw new UnexpectedValueException("not a call");
            $args = VerdictWire::decode($f["args"]);
            if (!function_exists($f["call"]))
                throw new Error("Call to undefined function " . $f["call"] . "()");
            $answer = "{\"ok\":" . VerdictWire::encode(($f["call"])(...$args)) . "}";
        } catch (Throwable $e) {
            try {
                $answer = "{\"raise\":" . VerdictWire::encode_string(get_class($e)) . ",\"message\":"
                    . json_encode(substr($e->getMessage(), 0, 2000), JSON_INVALID_UTF8_SUBSTITUTE | JSON_THROW_ON_ERROR) . "}";
            } catch (Throwable $e2) {
                $answer = "{\"raise\":\"Exception\",\"message\":\"\"}";
            }
        }
        @fflush(STDOUT);
        fwrite($out, $answer . "\n");
    }
})();
