"""Wrong Ruby, PHP, Perl and Lua solutions that try to get reward 1 from a harness: the tests
of MultiPL-E's shape (test/unit, PHP's `candidate` wrapper and exceptions, Perl's Test::Deep
with `exit 1`, Lua's luaunit), sent to /v1/judge with a `harness` and its `entry_point`, the
route MultiPL-E's problems take through /submit and `verdict bench` as well. Each attack is a
short program with a comment saying what it tries; none may pass (no reward 1, never SE). The
tests run in a grader process (languages/<lang>/grader.*, docs/integrity/scripting.md); the
program only answers calls, so each attack fails for its own reason: the controls beside
them (an honest answer passes, a wrong one is WA, one that raises is RE, values keep their
kinds) show that the harness itself works."""
import json
import os
import shutil
import tempfile

import pytest

from conftest import (DATA, Server, assert_accepted, assert_refused, code, in_parallel, judge,
                      judge_batch, submit)

LIMITS = {"time_ms": 3000, "wall_ms": 10000}
# A line past the wire's 64 MiB crosses a 64 KiB pipe in a thousand turns of writer and
# reader: on a loaded machine its wall time is mostly waiting for a CPU, which must not make it
# the server's SE.
HUGE_LIMITS = {"time_ms": 5000, "wall_ms": 40000}

# ---- Ruby -----------------------------------------------------------------------------------

RB_TESTS = code('''
    require 'test/unit'
    class TestHumanEval < Test::Unit::TestCase
      def test_add
        candidate = method(:add)
        assert_equal(3, candidate.call(1, 2))
        assert_equal(7, candidate.call(2, 5))
        assert_equal(-4, candidate.call(-1, -3))
      end
    end
''')
RB_HONEST = "def add(a, b)\n  a + b\nend\n"
RB_WRONG = "def add(a, b)\n  a - b\nend\n"
# The tests' answers, looked for wherever the program can read: its own files, its
# environment, every process's command line, environment and stdin it can open. Found, the
# function answers from them; otherwise it answers wrong.
RB_LOOKUP = code('''
    $answers = {}
    texts = [ENV.to_h.to_s]
    (Dir.glob("*") + Dir.glob("/proc/[0-9]*/{cmdline,environ,fd/0}") + Dir.glob("/tmp/**/*")).each do |f|
      begin
        texts << File.read(f, 1 << 20) if File.file?(f) || f.end_with?("fd/0")
      rescue StandardError, NotImplementedError
      end
    end
    texts.join("\\n").scan(/assert_equal\\((-?\\d+), candidate\\.call\\((-?\\d+), (-?\\d+)\\)\\)/) do |w, a, b|
      $answers[[a.to_i, b.to_i]] = w.to_i
    end
    def add(a, b)
      $answers.fetch([a, b], 0)
    end
''')

RUBY = [
    # early exits
    ("rb_exit_in_call", "def add(a, b)\n  exit 0\nend\n"),
    ("rb_exit_bang_in_call", "def add(a, b)\n  exit!(0)\nend\n"),
    ("rb_exit_at_top", RB_WRONG + "exit 0  # before anything else runs\n"),
    ("rb_abort_in_call", "def add(a, b)\n  abort\nend\n"),
    ("rb_at_exit", RB_WRONG + "at_exit { exit!(0) }  # a failed run turned into exit 0\n"),
    ("rb_end_block", RB_WRONG + "END { $stdout.flush; exit!(0) }\n"),
    ("rb_trap_exit", RB_WRONG + "trap('EXIT') { exit!(0) }\n"),
    ("rb_exec_true", "def add(a, b)\n  exec('/bin/true')  # the process becomes one that exits 0\nend\n"),
    ("rb_kill_self_term", "def add(a, b)\n  Process.kill(:TERM, Process.pid)\n  sleep 1\nend\n"),
    # replacing the framework
    ("rb_assert_equal_redefined", "require 'test/unit'\n" + RB_WRONG + code('''
        module Test::Unit::Assertions
          def assert_equal(*) = true  # every check passes
        end
        class Test::Unit::TestCase
          def assert_equal(*) = true
        end
    ''')),
    ("rb_fake_test_unit", RB_WRONG + code('''
        # a test/unit of its own, marked loaded: the tests' require finds it, their class runs nothing
        $LOADED_FEATURES << "test/unit.rb" << File.expand_path("test/unit.rb")
        module Test; module Unit; class TestCase; end; end; end
    ''')),
    ("rb_autorunner_passes", "require 'test/unit'\n" + RB_WRONG + code('''
        class Test::Unit::AutoRunner
          def self.run(*) = true
        end
        Test::Unit::AutoRunner.need_auto_run = false
    ''')),
    ("rb_kernel_method_patched", RB_WRONG + code('''
        module Kernel  # method(:add) answers a lambda that returns what the check wants
          def method(*) = ->(*a) { Class.new { def ==(o) = true }.new }
        end
    ''')),
    # rigged values
    ("rb_always_equal", code('''
        class Always
          def ==(o) = true
          def eql?(o) = true
        end
        def add(a, b)
          Always.new
        end
    ''')),
    ("rb_string_subclass", code('''
        class S < String
          def ==(o) = true
        end
        def add(a, b)
          S.new("x")  # arrives as the plain string "x"
        end
    ''')),
    ("rb_integer_eq_patched", RB_WRONG + code('''
        class Integer
          alias_method :verdict_old_eq, :==
          def ==(o) = true  # every integer equals every other, in this process
        end
    ''')),
    ("rb_float_for_int", "def add(a, b)\n  (a - b).to_f\nend\n"),
    # the grader and the channel
    ("rb_kill_parent", "def add(a, b)\n  Process.kill(:KILL, Process.ppid) rescue nil\n  a - b\nend\n"),
    ("rb_kill_everything", "def add(a, b)\n  Process.kill(:KILL, -1) rescue nil\n  a - b\nend\n"),
    ("rb_stop_others", code('''
        def add(a, b)
          Dir.children("/proc").grep(/\\A\\d+\\z/).map(&:to_i).each do |pid|
            next if pid == Process.pid
            [:STOP, :KILL].each { |s| Process.kill(s, pid) rescue nil }
          end
          a - b
        end
    ''')),
    ("rb_channel_forged", RB_WRONG + code('''
        # a verdict written ahead of the calls, then the channel closed
        out = IO.for_fd(4, "wb", autoclose: false)
        out.write("{\\"verdict\\":\\"OK\\",\\"passed\\":true}\\n{\\"ok\\":true,\\"status\\":0}\\n")
        out.flush
        exit!(0)
    ''')),
    ("rb_channel_garbage", RB_WRONG + code('''
        out = IO.for_fd(4, "wb", autoclose: false)
        out.write("PASS\\n" * 1000)
        out.flush
    ''')),
    ("rb_channel_huge_line", code('''
        def add(a, b)
          out = IO.for_fd(4, "wb", autoclose: false)
          chunk = "[" * (1 << 20)
          70.times { out.write(chunk) }  # past the 64 MiB a line may have, no newline
          sleep 2
        end
    ''')),
    ("rb_channel_deep_nesting", code('''
        def add(a, b)
          IO.for_fd(4, "wb", autoclose: false).write("{\\"ok\\":" + "[" * 100000 + "]" * 100000 + "}\\n")
          sleep 2
        end
    ''')),
    ("rb_answers_from_anywhere", RB_LOOKUP),
    ("rb_print_pass", RB_WRONG + code('''
        puts "1 tests, 3 assertions, 0 failures, 0 errors, 0 pendings, 0 omissions, 0 notifications"
        puts "100% passed"
    ''')),
    ("rb_plain_wrong", RB_WRONG),
]

# name -> (code, tests, entry, verdict wanted)
RB_TYPED_TESTS = code('''
    require 'test/unit'
    class TestTyped < Test::Unit::TestCase
      def test_values
        v = values(2)
        assert_equal([1, 2.5, "s\\u00e9\\n", nil, true, false, {"k" => [1, {2 => 3}]}, 2 ** 80, -0.0], v)
        assert_kind_of(Integer, v[0])
        assert_kind_of(Float, v[1])
        assert_kind_of(Float, values(3)[0])
        assert_raise(ZeroDivisionError) { values(0) }
      end
    end
''')
RB_TYPED = code('''
    def values(n)
      raise ZeroDivisionError, "zero" if n == 0
      return [3.0] if n == 3
      [1, 2.5, "s\\u00e9\\n", nil, true, false, {"k" => [1, {2 => 3}]}, 2 ** 80, -0.0]
    end
''')
RUBY_CONTROLS = {
    "rb_honest": (RB_HONEST, RB_TESTS, "add", "OK"),
    "rb_honest_helper_and_output": ("def helper(x) = x\nputs 'hi'\ndef add(a, b)\n  helper(a) + b\nend\n",
                                    RB_TESTS, "add", "OK"),
    "rb_typed_values": (RB_TYPED, RB_TYPED_TESTS, "values", "OK"),
    "rb_wrong_is_wa": (RB_WRONG, RB_TESTS, "add", "WA"),
    "rb_raise_is_re": ("def add(a, b)\n  raise ArgumentError, 'no'\nend\n", RB_TESTS, "add", "RE"),
    "rb_missing_is_re": ("def other(a, b) = 0\n", RB_TESTS, "add", "RE"),
}

# ---- PHP ------------------------------------------------------------------------------------

PHP_TESTS = code("""
    function candidate(...$args) {
        return add(...$args);
    }

    function test(): void {
        if (candidate(1, 2) !== 3) { throw new Exception("Test failed!"); }
        if (candidate(2, 5) !== 7) { throw new Exception("Test failed!"); }
        if (candidate(-1, -3) !== -4) { throw new Exception("Test failed!"); }
    }

    test();
""")
PHP_HONEST = "<?php\nfunction add($a, $b) {\n    return $a + $b;\n}\n"
PHP_WRONG = "<?php\nfunction add($a, $b) {\n    return $a - $b;\n}\n"
PHP_LOOKUP = code("""
    <?php
    $GLOBALS["answers"] = [];
    $texts = [json_encode(getenv())];
    foreach (array_merge(glob("*"), glob("/proc/[0-9]*/cmdline"), glob("/proc/[0-9]*/environ"),
                         glob("/proc/[0-9]*/fd/0"), glob("/tmp/*")) as $f) {
        $t = @file_get_contents($f, false, null, 0, 1 << 20);
        if ($t !== false) $texts[] = $t;
    }
    preg_match_all('/candidate\\((-?\\d+), (-?\\d+)\\) !== (-?\\d+)/', implode("\\n", $texts), $m, PREG_SET_ORDER);
    foreach ($m as [, $a, $b, $w]) $GLOBALS["answers"]["$a,$b"] = (int)$w;
    function add($a, $b) {
        return $GLOBALS["answers"]["$a,$b"] ?? 0;
    }
""")

PHP = [
    ("php_exit_in_call", "<?php\nfunction add($a, $b) {\n    exit(0);\n}\n"),
    ("php_die_in_call", "<?php\nfunction add($a, $b) {\n    die();\n}\n"),
    ("php_exit_at_top", PHP_WRONG + "exit(0);  // before anything else runs\n"),
    ("php_shutdown_function", PHP_WRONG + "register_shutdown_function(function () { exit(0); });\n"),
    ("php_exception_handler", PHP_WRONG + "set_exception_handler(function ($e) { exit(0); });\n"),
    ("php_error_handler_and_exit", PHP_WRONG + code("""
        set_error_handler(function () { exit(0); });
        ini_set("display_errors", "0");
        register_shutdown_function(function () { if (error_get_last() || true) exit(0); });
    """)),
    ("php_halt_compiler", PHP_WRONG + "__halt_compiler();  // the rest of the file (the tests, on main) never runs\n"),
    ("php_close_tag", PHP_WRONG + "?>\n"),
    ("php_kill_parent", "<?php\nfunction add($a, $b) {\n    @posix_kill(posix_getppid(), 9);\n    return $a - $b;\n}\n"),
    ("php_kill_everything", "<?php\nfunction add($a, $b) {\n    @posix_kill(-1, 9);\n    return $a - $b;\n}\n"),
    ("php_stop_others", code("""
        <?php
        function add($a, $b) {
            foreach (glob("/proc/[0-9]*") as $p) {
                $pid = (int)basename($p);
                if ($pid != getmypid()) { @posix_kill($pid, 19); @posix_kill($pid, 9); }
            }
            return $a - $b;
        }
    """)),
    ("php_fork_and_exit_parent", code("""
        <?php
        function add($a, $b) {
            if (pcntl_fork() > 0) exit(0);  // the parent exits 0, the child goes on wrong
            return $a - $b;
        }
    """)),
    ("php_float_for_int", "<?php\nfunction add($a, $b) {\n    return (float)($a + $b);  // 3.0 !== 3\n}\n"),
    ("php_string_for_int", "<?php\nfunction add($a, $b) {\n    return (string)($a + $b);\n}\n"),
    ("php_object_with_tostring", code("""
        <?php
        class Any { function __toString(): string { return "3"; } }
        function add($a, $b) {
            return new Any();
        }
    """)),
    ("php_unregister_streams", PHP_WRONG + 'stream_wrapper_unregister("php");\n'),
    ("php_channel_forged", PHP_WRONG + code("""
        $o = fopen("php://fd/4", "wb");
        fwrite($o, "{\\"verdict\\":\\"OK\\",\\"passed\\":true}\\n{\\"ok\\":true,\\"status\\":0}\\n");
        exit(0);
    """)),
    ("php_channel_garbage", PHP_WRONG + code("""
        $o = fopen("php://fd/4", "wb");
        fwrite($o, str_repeat("PASS\\n", 1000));
    """)),
    ("php_channel_huge_line", code("""
        <?php
        function add($a, $b) {
            $o = fopen("php://fd/4", "wb");
            $chunk = str_repeat("[", 1 << 20);
            for ($i = 0; $i < 70; $i++) fwrite($o, $chunk);
            sleep(2);
        }
    """)),
    ("php_channel_deep_nesting", code("""
        <?php
        function add($a, $b) {
            $o = fopen("php://fd/4", "wb");
            fwrite($o, "{\\"ok\\":" . str_repeat("[", 100000) . str_repeat("]", 100000) . "}\\n");
            sleep(2);
        }
    """)),
    ("php_channel_bad_map", code("""
        <?php
        function add($a, $b) {
            $o = fopen("php://fd/4", "wb");
            fwrite($o, "{\\"ok\\":{\\"object\\":\\"Exception\\"}}\\n");  // not a value of the wire
            sleep(2);
        }
    """)),
    ("php_answers_from_anywhere", PHP_LOOKUP),
    ("php_print_pass", PHP_WRONG + 'echo "Test passed!\\nOK (3 tests)\\n";\n'),
    ("php_plain_wrong", PHP_WRONG),
]

PHP_TYPED_TESTS = code("""
    function test(): void {
        $v = values(2);
        if ($v !== [1, 2.5, "s\\u{e9}\\n", null, true, false, ["k" => [1, 7 => 3]], 3.0, -0.0, PHP_INT_MAX, 1.0e+25])
            throw new Exception("values: " . var_export($v, true));
        if (values(3) !== [3 => "x", "y" => 0.5]) throw new Exception("map");
        try {
            values(0);
            throw new Exception("no raise");
        } catch (ValueError $e) {
            if ($e->getMessage() !== "zero") throw new Exception("message");
        }
    }
    test();
""")
PHP_TYPED = code("""
    <?php
    function values($n) {
        if ($n == 0) throw new ValueError("zero");
        if ($n == 3) return [3 => "x", "y" => 0.5];
        return [1, 2.5, "s\\u{e9}\\n", null, true, false, ["k" => [1, 7 => 3]], 3.0, -0.0, PHP_INT_MAX, 1.0e+25];
    }
""")
PHP_CONTROLS = {
    "php_honest": (PHP_HONEST, PHP_TESTS, "add", "OK"),
    "php_honest_no_open_tag": ("function add($a, $b) {\n    return $a + $b;\n}\n", PHP_TESTS, "add", "OK"),
    "php_honest_close_tag_and_output": ("<?php\nfunction helper($x) { return $x; }\necho 'hi';\n"
                                        "function add($a, $b) {\n    return helper($a) + $b;\n}\n?>\n",
                                        PHP_TESTS, "add", "OK"),
    "php_typed_values": (PHP_TYPED, PHP_TYPED_TESTS, "values", "OK"),
    "php_wrong_is_wa": (PHP_WRONG, PHP_TESTS, "add", "WA"),
    "php_raise_is_re": ("<?php\nfunction add($a, $b) {\n    throw new InvalidArgumentException('no');\n}\n",
                        PHP_TESTS, "add", "RE"),
    "php_missing_is_re": ("<?php\nfunction other($a, $b) { return 0; }\n", PHP_TESTS, "add", "RE"),
}

# ---- Perl -----------------------------------------------------------------------------------

PL_TESTS = code("""
    use Test::Deep;


    sub testhumaneval {
        my $candidate = \\&add;
            if(eq_deeply($candidate->(1, 2),3)) {
            print "ok!" }else{
            exit 1;
            }
            if(eq_deeply($candidate->(2, 5),7)) {
            print "ok!" }else{
            exit 1;
            }
            if(eq_deeply($candidate->(-1, -3),-4)) {
            print "ok!" }else{
            exit 1;
            }
    }

    testhumaneval();
""")
PL_HONEST = "sub add {\n    my ($a, $b) = @_;\n    return $a + $b;\n}\n"
PL_WRONG = "sub add {\n    my ($a, $b) = @_;\n    return $a - $b;\n}\n"
PL_LOOKUP = code("""
    our %answers;
    my @texts = (join("\\n", %ENV));
    for my $f (glob("*"), glob("/proc/[0-9]*/cmdline"), glob("/proc/[0-9]*/environ"),
               glob("/proc/[0-9]*/fd/0"), glob("/tmp/*")) {
        open(my $h, "<", $f) or next;
        local $/;
        my $t = <$h>;
        push @texts, $t if defined $t;
    }
    my $all = join("\\n", @texts);
    $answers{"$1,$2"} = $3 while $all =~ /candidate->\\((-?\\d+), (-?\\d+)\\),(-?\\d+)\\)/g;
    sub add {
        my ($a, $b) = @_;
        return $answers{"$a,$b"} // 0;
    }
""")

PERL = [
    ("pl_exit_in_call", "sub add {\n    exit 0;\n}\n"),
    ("pl_posix_exit_in_call", "use POSIX ();\nsub add {\n    POSIX::_exit(0);\n}\n"),
    ("pl_exit_at_top", PL_WRONG + "exit 0;  # before anything else runs\n"),
    ("pl_end_block", PL_WRONG + "END { $? = 0 }  # the tests' exit 1 turned into 0\n"),
    ("pl_end_posix_exit", PL_WRONG + "use POSIX ();\nEND { POSIX::_exit(0) }\n"),
    ("pl_global_exit_overridden", code("""
        BEGIN { *CORE::GLOBAL::exit = sub { CORE::exit(0) } }  # every exit of the tests is exit 0
    """) + PL_WRONG),
    ("pl_die_handler", code("""
        use POSIX ();
        $SIG{__DIE__} = sub { POSIX::_exit(0) };
    """) + PL_WRONG),
    ("pl_eq_deeply_replaced", code("""
        BEGIN {
            require Test::Deep;
            no warnings "redefine";
            *Test::Deep::eq_deeply = sub { 1 };  # before the tests import it
        }
    """) + PL_WRONG),
    ("pl_fake_test_deep", code("""
        BEGIN {
            $INC{"Test/Deep.pm"} = __FILE__;  # `use Test::Deep` finds this one loaded
            package Test::Deep;
            sub import { no strict "refs"; *{caller() . "::eq_deeply"} = sub { 1 } }
        }
    """) + PL_WRONG),
    ("pl_overloaded_object", code("""
        package Always;
        use overload "eq" => sub { 1 }, "==" => sub { 1 }, '""' => sub { "3" }, fallback => 1;
        package main;
        sub add {
            return bless {}, "Always";
        }
    """)),
    ("pl_string_for_number", "sub add {\n    my ($a, $b) = @_;\n    return \"$a$b\";\n}\n"),
    ("pl_list_for_scalar", "sub add {\n    my ($a, $b) = @_;\n    return ($a - $b, 3, 7, -4);\n}\n"),
    ("pl_kill_parent", "sub add {\n    kill 'KILL', getppid();\n    return $_[0] - $_[1];\n}\n"),
    ("pl_kill_everything", "sub add {\n    kill 'KILL', -1;\n    return $_[0] - $_[1];\n}\n"),
    ("pl_stop_others", code("""
        sub add {
            for my $p (glob("/proc/[0-9]*")) {
                my ($pid) = $p =~ /(\\d+)$/;
                next if $pid == $$;
                kill 'STOP', $pid;
                kill 'KILL', $pid;
            }
            return $_[0] - $_[1];
        }
    """)),
    ("pl_fork_and_exit_parent", code("""
        use POSIX ();
        sub add {
            POSIX::_exit(0) if fork();  # the parent exits 0, the child goes on wrong
            return $_[0] - $_[1];
        }
    """)),
    ("pl_channel_forged", PL_WRONG + code("""
        open(my $o, ">&=", 4) or die;
        syswrite($o, "{\\"verdict\\":\\"OK\\",\\"passed\\":true}\\n{\\"ok\\":true,\\"status\\":0}\\n");
        exit 0;
    """)),
    ("pl_channel_garbage", PL_WRONG + code("""
        open(my $o, ">&=", 4) or die;
        syswrite($o, "ok!\\n" x 1000);
    """)),
    ("pl_channel_huge_line", code("""
        sub add {
            open(my $o, ">&=", 4) or die;
            my $chunk = "[" x (1 << 20);
            syswrite($o, $chunk) for 1 .. 70;
            sleep 2;
        }
    """)),
    ("pl_channel_deep_nesting", code("""
        sub add {
            open(my $o, ">&=", 4) or die;
            syswrite($o, "{\\"ok\\":" . ("[" x 100000) . ("]" x 100000) . "}\\n");
            sleep 2;
        }
    """)),
    ("pl_answers_from_anywhere", PL_LOOKUP),
    ("pl_print_ok", PL_WRONG + 'print "ok!ok!ok!\\n";\n'),
    ("pl_plain_wrong", PL_WRONG),
]

PL_TYPED_TESTS = code("""
    use Test::Deep;
    my @v = values_of(2);
    exit 1 unless eq_deeply(\\@v, [1, 2.5, "s\\x{e9}\\n", undef, {k => [1, {2 => 3}]}, "abc", 0.1 + 0.2]);
    exit 1 unless values_of(2) == 7;  # scalar context: the count
    exit 1 unless (values_of(3))[0] eq "1e+20" && (values_of(3))[1] == 2 ** 53 + 1;
    exit 1 if eval { values_of(0); 1 };
    exit 1 unless $@ =~ /^zero/;
""")
PL_TYPED = code("""
    sub values_of {
        my ($n) = @_;
        die "zero\\n" if $n == 0;
        return (1e20, 2 ** 53 + 1) if $n == 3;
        my @r = (1, 2.5, "s\\x{e9}\\n", undef, {k => [1, {2 => 3}]}, "abc", 0.1 + 0.2);
        return wantarray ? @r : scalar(@r);
    }
""")
PERL_CONTROLS = {
    "pl_honest": (PL_HONEST, PL_TESTS, "add", "OK"),
    "pl_honest_helper_and_output": ("use strict;\nsub helper { $_[0] }\nprint \"hi\\n\";\n"
                                    "sub add {\n    my ($a, $b) = @_;\n    return helper($a) + $b;\n}\n1;\n",
                                    PL_TESTS, "add", "OK"),
    "pl_typed_values": (PL_TYPED, PL_TYPED_TESTS, "values_of", "OK"),
    "pl_wrong_is_wa": (PL_WRONG, PL_TESTS, "add", "WA"),
    "pl_die_is_re": ("sub add {\n    die \"no\\n\";\n}\n", PL_TESTS, "add", "RE"),
    "pl_missing_is_re": ("sub other { 0 }\n", PL_TESTS, "add", "RE"),
}

# ---- Lua ------------------------------------------------------------------------------------

LUA_TESTS = code("""
    lu = require('luaunit')

    function test_humaneval()
    local candidate = add
        lu.assertEquals(candidate(1, 2), 3)
        lu.assertEquals(candidate(2, 5), 7)
        lu.assertEquals(candidate(-1, -3), -4)
    end

    os.exit(lu.LuaUnit.run())
""")
LUA_HONEST = "local function add(a, b)\n    return a + b\nend\n"
LUA_WRONG = "local function add(a, b)\n    return a - b\nend\n"
LUA_LOOKUP = code("""
    local answers = {}
    local p = io.popen("cat * /tmp/* /proc/[0-9]*/cmdline /proc/[0-9]*/environ /proc/[0-9]*/fd/0 2>/dev/null; env")
    local all = p and p:read("a") or ""
    for a, b, w in all:gmatch("candidate%((%-?%d+), (%-?%d+)%), (%-?%d+)%)") do
        answers[a .. "," .. b] = tonumber(w)
    end
    local function add(a, b)
        return answers[a .. "," .. b] or 0
    end
""")
LUA = [
    ("lua_exit_in_call", "local function add(a, b)\n    os.exit(0)\nend\n"),
    ("lua_exit_true_in_call", "local function add(a, b)\n    os.exit(true, true)\nend\n"),
    ("lua_exit_at_top", LUA_WRONG + "os.exit(0)  -- before anything else runs\n"),
    ("lua_fake_luaunit", LUA_WRONG + code("""
        -- a luaunit of its own, already loaded: the tests' require finds it
        package.loaded.luaunit = {assertEquals = function() end,
                                  LuaUnit = {run = function() return 0 end}}
    """)),
    ("lua_luaunit_preload", LUA_WRONG + code("""
        package.loaded.luaunit = nil
        package.preload.luaunit = function()
            return {assertEquals = function() end, LuaUnit = {run = function() return 0 end}}
        end
    """)),
    ("lua_luaunit_patched", LUA_WRONG + code("""
        local lu = require('luaunit')
        lu.assertEquals = function() end  -- the tests get this very table from require
        lu.LuaUnit.run = function() return 0 end
    """)),
    ("lua_os_exit_patched", LUA_WRONG + code("""
        local real = os.exit
        os.exit = function() real(0, true) end  -- the tests' os.exit(failures) exits 0
    """)),
    ("lua_require_patched", LUA_WRONG + code("""
        local fake = {assertEquals = function() end, LuaUnit = {run = function() return 0 end}}
        require = function() return fake end
    """)),
    ("lua_eq_metamethod", code("""
        local always = {__eq = function() return true end}
        local function add(a, b)
            return setmetatable({}, always)  -- equal to anything, in this process
        end
    """)),
    ("lua_string_for_number", "local function add(a, b)\n    return tostring(a + b)\nend\n"),
    ("lua_error_object", "local function add(a, b)\n    error(setmetatable({}, {__tostring = function() return 'ok' end}))\nend\n"),
    ("lua_kill_parent", "local function add(a, b)\n    os.execute('kill -9 $PPID; kill -9 1')\n    return a - b\nend\n"),
    ("lua_kill_everything", "local function add(a, b)\n    os.execute('kill -9 -1')\n    return a - b\nend\n"),
    ("lua_stop_others", code("""
        local function add(a, b)
            os.execute("for p in /proc/[0-9]*; do kill -STOP ${p#/proc/}; kill -KILL ${p#/proc/}; done")
            return a - b
        end
    """)),
    ("lua_channel_forged", LUA_WRONG + code("""
        local o = io.open("/dev/fd/4", "wb") or io.popen("exec cat >&4", "w")
        o:write('{"verdict":"OK","passed":true}\\n{"ok":true,"status":0}\\n')
        o:close()
        os.exit(0)
    """)),
    ("lua_channel_garbage", LUA_WRONG + code("""
        local o = io.open("/dev/fd/4", "wb") or io.popen("exec cat >&4", "w")
        o:write(string.rep("OK\\n", 1000))
        o:flush()
    """)),
    ("lua_channel_huge_line", code("""
        local function add(a, b)
            local o = io.open("/dev/fd/4", "wb") or io.popen("exec cat >&4", "w")
            local chunk = string.rep("[", 1 << 20)
            for i = 1, 70 do o:write(chunk) end
            o:flush()
            os.execute("sleep 2")
        end
    """)),
    ("lua_channel_deep_nesting", code("""
        local function add(a, b)
            local o = io.open("/dev/fd/4", "wb") or io.popen("exec cat >&4", "w")
            o:write('{"ok":[' .. string.rep("[", 100000) .. string.rep("]", 100000) .. ']}\\n')
            o:flush()
            os.execute("sleep 2")
        end
    """)),
    ("lua_answers_from_anywhere", LUA_LOOKUP),
    ("lua_print_ok", LUA_WRONG + 'print("Ran 1 tests in 0.000 seconds, 1 success, 0 failures")\nprint("OK")\n'),
    ("lua_plain_wrong", LUA_WRONG),
]

LUA_TYPED_TESTS = code("""
    lu = require('luaunit')

    function test_values()
        local a, b, c, d = values(2)
        lu.assertEquals(math.type(a), "integer")
        lu.assertEquals(math.type(b), "float")
        lu.assertEquals(b, 2.5)
        lu.assertEquals(c, {1, "s\\u{e9}\\n", {k = {true, false}}, [5] = 0.1 + 0.2})
        lu.assertEquals(d, nil)
        lu.assertEquals(select("#", values(2)), 5)
        lu.assertEquals(math.type(values(3)), "float")
        lu.assertErrorMsgContains("zero", values, 0)
    end

    os.exit(lu.LuaUnit.run())
""")
LUA_TYPED = code("""
    function values(n)
        if n == 0 then error("zero") end
        if n == 3 then return 3.0 end
        return 1, 2.5, {1, "s\\u{e9}\\n", {k = {true, false}}, [5] = 0.1 + 0.2}, nil, "x"
    end
""")
LUA_TEST_NAMED_TESTS = LUA_TESTS.replace("local candidate = add", "local candidate = test_add")
LUA_CONTROLS = {
    "lua_honest": (LUA_HONEST, LUA_TESTS, "add", "OK"),
    "lua_honest_global_and_output": ("local function helper(x) return x end\nprint('hi')\n"
                                     "function add(a, b)\n    return helper(a) + b\nend\n", LUA_TESTS, "add", "OK"),
    # MBPP has entry points named test_*: luaunit must not take the grader's proxy for a test
    "lua_honest_entry_named_test": ("local function test_add(a, b)\n    return a + b\nend\n",
                                    LUA_TEST_NAMED_TESTS, "test_add", "OK"),
    "lua_typed_values": (LUA_TYPED, LUA_TYPED_TESTS, "values", "OK"),
    "lua_wrong_is_wa": (LUA_WRONG, LUA_TESTS, "add", "WA"),
    "lua_error_is_re": ("local function add(a, b)\n    error('no')\nend\n", LUA_TESTS, "add", "RE"),
    "lua_missing_is_re": ("local function other(a, b) return 0 end\n", LUA_TESTS, "add", "RE"),
}

ATTACKS = {name: ("ruby", src, RB_TESTS, "add") for name, src in RUBY}
ATTACKS.update({name: ("php", src, PHP_TESTS, "add") for name, src in PHP})
CONTROLS = {name: ("ruby",) + c for name, c in RUBY_CONTROLS.items()}
CONTROLS.update({name: ("php",) + c for name, c in PHP_CONTROLS.items()})
ATTACKS.update({name: ("perl", src, PL_TESTS, "add") for name, src in PERL})
CONTROLS.update({name: ("perl",) + c for name, c in PERL_CONTROLS.items()})
ATTACKS.update({name: ("lua", src, LUA_TESTS, "add") for name, src in LUA})
CONTROLS.update({name: ("lua",) + c for name, c in LUA_CONTROLS.items()})


def body(lang, src, tests, entry, limits=LIMITS):
    return {"language": lang, "code": src, "harness": tests, "entry_point": entry,
            "limits": limits}


@pytest.fixture(scope="module")
def outcomes(srv):
    bodies = {n: body(*a, limits=HUGE_LIMITS if "huge_line" in n else LIMITS)
              for n, a in ATTACKS.items()}
    bodies.update({n: body(*c[:4]) for n, c in CONTROLS.items()})
    return judge_batch(srv, bodies)


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_attack_fails(outcomes, name):
    assert_refused(outcomes[name])


@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_control(outcomes, name):
    want = CONTROLS[name][4]
    got = outcomes[name]
    if want == "OK":
        assert_accepted(got)
    else:
        assert_refused(got)
        assert [t["verdict"] for t in got["tests"]] == [want], got["tests"]


SINGLE = {
    "ruby": (RB_HONEST, RB_WRONG + "at_exit { exit!(0) }\n", RB_TESTS),
    "php": (PHP_HONEST, PHP_WRONG + "register_shutdown_function(function () { exit(0); });\n", PHP_TESTS),
    "perl": (PL_HONEST, PL_WRONG + "END { $? = 0 }\n", PL_TESTS),
    "lua": (LUA_HONEST, LUA_WRONG + "package.loaded.luaunit = {assertEquals = function() end, "
            "LuaUnit = {run = function() return 0 end}}\n", LUA_TESTS),
}


@pytest.mark.parametrize("lang", sorted(SINGLE))
def test_single_judge(srv, lang):
    """/v1/judge itself (not the batch) runs the grader too."""
    honest, wrong, tests = SINGLE[lang]
    assert_accepted(judge(srv, body(lang, honest, tests, "add")))
    assert_refused(judge(srv, body(lang, wrong, tests, "add")))


# ---- MultiPL-E's own problems through /submit ----------------------------------------------
# A server of this module's own with MultiPL-E's Ruby, PHP, Perl and Lua sets imported (from
# ../shared/more-datasets, which the session's server does not import): HumanEval_0 in each
# language, its chat answer as the control.

MORE = os.path.join(os.path.dirname(os.path.abspath(DATA)), "more-datasets", "multipl-e")
HE0 = "HumanEval_0_has_close_elements"
SUBMIT_ATTACKS = {
    "submit_rb_at_exit": ("rb", "def has_close_elements(numbers, threshold)\n  false\nend\n"
                          "at_exit { exit!(0) }\n"),
    "submit_rb_assert_equal": ("rb", "require 'test/unit'\nclass Test::Unit::TestCase\n"
                               "  def assert_equal(*) = true\nend\n"
                               "def has_close_elements(numbers, threshold)\n  false\nend\n"),
    "submit_rb_exit_at_top": ("rb", "def has_close_elements(numbers, threshold)\n  false\nend\nexit 0\n"),
    "submit_php_shutdown": ("php", "<?php\nfunction has_close_elements($numbers, $threshold) {\n"
                            "    return false;\n}\nregister_shutdown_function(function () { exit(0); });\n"),
    "submit_php_exit_at_top": ("php", "<?php\nfunction has_close_elements($numbers, $threshold) {\n"
                               "    return false;\n}\nexit(0);\n"),
    "submit_pl_end_block": ("pl", "sub has_close_elements {\n    return \"\";\n}\nEND { $? = 0 }\n"),
    "submit_pl_posix_exit": ("pl", "use POSIX ();\nsub has_close_elements {\n    return \"\";\n}\n"
                             "END { POSIX::_exit(0) }\n"),
    "submit_lua_fake_luaunit": ("lua", "local function has_close_elements(numbers, threshold)\n"
                                "    return false\nend\npackage.loaded.luaunit = {assertEquals = "
                                "function() end, LuaUnit = {run = function() return 0 end}}\n"),
    "submit_lua_exit_at_top": ("lua", "local function has_close_elements(numbers, threshold)\n"
                               "    return false\nend\nos.exit(0)\n"),
}
FENCE = {"rb": "ruby", "php": "php", "pl": "perl", "lua": "lua"}


@pytest.fixture(scope="module")
def more_srv():
    if os.geteuid() != 0:
        pytest.skip("the sandbox needs root")
    if not all(os.path.exists(os.path.join(MORE, f"humaneval-{l}.jsonl")) for l in FENCE):
        pytest.skip(f"no MultiPL-E Ruby, PHP, Perl and Lua sets at {MORE}")
    d = tempfile.mkdtemp(prefix="verdict-integrity-scripting-", dir="/var/tmp")
    os.mkdir(d + "/multipl-e")
    for lang in FENCE:
        os.symlink(os.path.join(MORE, f"humaneval-{lang}.jsonl"), f"{d}/multipl-e/humaneval-{lang}.jsonl")
    s = Server(d, cells=2)
    yield s
    code_, left = s.stop()
    shutil.rmtree(d, ignore_errors=True)
    assert code_ == 0 and not left


def chat_answer(lang, name):
    with open(os.path.join(MORE, f"humaneval-{lang}.jsonl")) as f:
        for line in f:
            row = json.loads(line)
            if row["name"] == name:
                return row["gpt_solution"]
    raise KeyError(name)


@pytest.fixture(scope="module")
def submitted(more_srv):
    jobs = [(n, lang, src, FENCE[lang]) for n, (lang, src) in SUBMIT_ATTACKS.items()]
    jobs += [(f"submit_{lang}_chat_answer", lang, chat_answer(lang, HE0), None) for lang in FENCE]
    # a chat answer goes as it is (markdown around its fenced code), as a whole answer
    got = in_parallel(lambda n, lang, src, fence: submit(more_srv, f"multiple_{lang}", HE0, src, fence,
                                                         extra={"is_freeform": True}), jobs)
    return dict(zip([j[0] for j in jobs], got))


@pytest.mark.parametrize("name", sorted(SUBMIT_ATTACKS))
def test_submit_attack_fails(submitted, name):
    assert_refused(submitted[name])


@pytest.mark.parametrize("lang", sorted(FENCE))
def test_submit_chat_answer_passes(submitted, lang):
    assert_accepted(submitted[f"submit_{lang}_chat_answer"])
