<?php
// verdict's typed wire in PHP (languages/wire.md), for the grader (grader.php) and the host
// (host.php); this file comes first in both, the other has no opening tag of its own. Values
// are written from their plain data (an object never crosses), a float always with its
// fraction (3.0, never 3: the tests compare with ===); read with json_decode into stdClass
// objects (never arrays, so an object and a list stay apart), then walked into plain PHP
// values from exactly the wire's grammar. Nothing read is called or evaluated.

final class VerdictWire
{
    const DEPTH = 100;          // nesting levels a value may have
    const LINE_MAX = 64 << 20;  // bytes of one message

    static function encode($v, int $depth = 0): string
    {
        if ($depth > self::DEPTH)
            throw new UnexpectedValueException("value nested too deeply");
        $d = $depth + 1;
        if ($v === null) return "null";
        if ($v === true) return "true";
        if ($v === false) return "false";
        if (is_int($v)) return (string)$v;
        if (is_float($v)) return self::encode_float($v);
        if (is_string($v)) return self::encode_string($v);
        if (is_array($v)) {
            $items = [];
            if (array_is_list($v)) {
                foreach ($v as $x) $items[] = self::encode($x, $d);
                return "[" . implode(",", $items) . "]";
            }
            foreach ($v as $k => $x) $items[] = "[" . self::encode($k, $d) . "," . self::encode($x, $d) . "]";
            return "{\"map\":[" . implode(",", $items) . "]}";
        }
        throw new UnexpectedValueException("a " . get_debug_type($v) . " cannot cross to the grader");
    }

    static function encode_float(float $f): string
    {
        if (is_nan($f)) return "{\"float\":\"nan\"}";
        if (is_infinite($f)) return $f > 0 ? "{\"float\":\"inf\"}" : "{\"float\":\"-inf\"}";
        return json_encode($f, JSON_PRESERVE_ZERO_FRACTION | JSON_THROW_ON_ERROR);
    }

    static function encode_string(string $s): string
    {
        return json_encode($s, JSON_UNESCAPED_SLASHES | JSON_THROW_ON_ERROR);
    }

    // One message's text into its object (stdClass), or null when it is not JSON.
    static function parse(string $line): ?stdClass
    {
        try {
            $m = json_decode($line, false, 3 * self::DEPTH + 10, JSON_THROW_ON_ERROR);
        } catch (JsonException $e) {
            return null;
        }
        return $m instanceof stdClass ? $m : null;
    }

    static function decode($v, int $depth = 0)
    {
        if ($depth > self::DEPTH)
            throw new UnexpectedValueException("value nested too deeply");
        $d = $depth + 1;
        if ($v === null || is_bool($v) || is_int($v) || is_float($v) || is_string($v))
            return $v;
        if (is_array($v)) {
            $out = [];
            foreach ($v as $x) $out[] = self::decode($x, $d);
            return $out;
        }
        $props = get_object_vars($v);
        if (!($v instanceof stdClass) || count($props) != 1)
            throw new UnexpectedValueException("not a value of the wire");
        $kind = array_key_first($props);
        $x = $props[$kind];
        switch ($kind) {
            case "map":
                if (!is_array($x)) break;
                $out = [];
                foreach ($x as $p) {
                    if (!is_array($p) || count($p) != 2) throw new UnexpectedValueException("a map is a list of pairs");
                    $k = self::decode($p[0], $d);
                    if (!is_int($k) && !is_string($k)) throw new UnexpectedValueException("a PHP key is an int or a string");
                    $out[$k] = self::decode($p[1], $d);
                }
                return $out;
            case "tuple":
            case "set":
                if (is_array($x)) return self::decode($x, $depth);
                break;
            case "char":
                if (is_string($x) && preg_match("/^.\\z/su", $x)) return $x;
                break;
            case "float":
                if ($x === "nan") return NAN;
                if ($x === "inf") return INF;
                if ($x === "-inf") return -INF;
                break;
        }
        throw new UnexpectedValueException("not a value of the wire");
    }
}
