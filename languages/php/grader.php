// verdict's grader for PHP harnesses (languages/wire.md, docs/integrity.md); wire.php comes
// before it, and the bootstrap in php.json evaluates both. It runs in a process of its own,
// as another uid than the program (runners/job.h), with the tests on its stdin: the program
// can neither read the tests nor reach this process. The tests run here; the entry point is a
// function of this process that sends the call to the program (fd 4) and decodes its answer
// (fd 3) into plain PHP values. Whatever the program does (exit, register_shutdown_function,
// a function of the tests' name, rigged objects), it can only answer calls.
//
// $VERDICT_ARGS (from the bootstrap): the tests, the setup (unused), the entry point.
// Exit status: 0 the tests ran to their end; 1 a check failed (the tests threw); 2 the program
// broke a call (it raised, exited, closed the channel or answered out of protocol).

// The program stopped serving: an Error, not an Exception, so `catch (Exception $e)` in the
// tests cannot swallow it; once raised, every later call raises it again.
final class VerdictProgramBroke extends Error {}

// An exception the program threw whose class PHP does not have.
final class VerdictProgramRaised extends Exception {}

final class VerdictGrader
{
    static $broken = null;
    static $raised = false;
    static $in, $out;

    static function broke(string $why): VerdictProgramBroke
    {
        if (self::$broken === null) self::$broken = $why;
        return new VerdictProgramBroke(self::$broken);
    }

    static function call(string $name, array $args)
    {
        if (self::$broken !== null) throw new VerdictProgramBroke(self::$broken);
        $msg = "{\"call\":" . VerdictWire::encode_string($name) . ",\"args\":" . VerdictWire::encode(array_values($args)) . "}\n";
        if (@fwrite(self::$out, $msg) !== strlen($msg))
            throw self::broke("the program stopped serving (it exited or closed its channel)");
        $line = stream_get_line(self::$in, VerdictWire::LINE_MAX, "\n");
        if ($line === false)
            throw self::broke("the program stopped serving (it exited or closed its channel)");
        if (strlen($line) >= VerdictWire::LINE_MAX)
            throw self::broke("the program's answer is too long");
        $m = VerdictWire::parse($line);
        if ($m === null)
            throw self::broke("the program answered with what is not a value");
        $f = get_object_vars($m);
        if (count($f) == 1 && array_key_exists("ok", $f)) {
            try {
                return VerdictWire::decode($f["ok"]);
            } catch (UnexpectedValueException $e) {
                throw self::broke("the program answered with what is not a value");
            }
        }
        if (count($f) == 2 && is_string($f["raise"] ?? null) && is_string($f["message"] ?? null))
            throw self::raised($f["raise"], $f["message"]);
        throw self::broke("the program answered out of protocol");
    }

    // The program's exception, as PHP's own class of that name where there is one (the tests
    // may expect it).
    static function raised(string $name, string $message): Throwable
    {
        self::$raised = true;
        if (preg_match('/^[A-Za-z_][A-Za-z0-9_]*$/', $name) && class_exists($name, false)) {
            $c = new ReflectionClass($name);
            if ($c->isInternal() && $c->isInstantiable() && $c->isSubclassOf(Throwable::class)) {
                try {
                    return new $name($message);
                } catch (Throwable $e) {
                }
            }
        }
        return new VerdictProgramRaised("$name: $message");
    }

    static function status(bool $passed): int
    {
        if (self::$broken !== null) return 2;
        if ($passed) return 0;
        return self::$raised ? 2 : 1;
    }
}

VerdictGrader::$in = fopen("php://fd/3", "rb");
VerdictGrader::$out = fopen("php://fd/4", "wb");
[$__verdict_tests, , $__verdict_entry] = $VERDICT_ARGS;
unset($VERDICT_ARGS);
if (preg_match('/^[A-Za-z_][A-Za-z0-9_]*$/', $__verdict_entry) && !function_exists($__verdict_entry))
    eval("function $__verdict_entry(...\$a) { return VerdictGrader::call('$__verdict_entry', \$a); }");
$__verdict_passed = true;
try {
    eval("?>" . (preg_match('/^\s*<\?php/i', $__verdict_tests) ? "" : "<?php ") . $__verdict_tests);
} catch (Throwable $__verdict_e) {
    $__verdict_passed = false;
    fwrite(STDERR, get_class($__verdict_e) . ": " . $__verdict_e->getMessage() . "\n" . $__verdict_e->getTraceAsString() . "\n");
}
if (VerdictGrader::$broken !== null)
    fwrite(STDERR, "verdict grader: " . VerdictGrader::$broken . "\n");
exit(VerdictGrader::status($__verdict_passed));
