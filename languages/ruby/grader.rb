# verdict's grader for Ruby harnesses (languages/wire.md, docs/integrity.md). It runs in a
# process of its own, as another uid than the program (runners/job.h), with the tests on its
# stdin: the program can neither read the tests nor reach this process. The tests run here,
# with the real test/unit; the entry point (and any other top-level name the tests call that
# nothing here defines) is a method that sends the call to the program over fd 4 and reads its
# answer on fd 3, decoded by VerdictWire into plain Ruby values. Whatever the program does
# (exit, at_exit, END, a test/unit of its own, rigged ==), it can only answer calls.
#
# ARGS (from the bootstrap in ruby.json): the tests, the setup (unused), the entry point.
# Exit status: 0 every check ran and passed; 1 a check failed; 2 the program broke a call
# (raised, exited, closed the channel, answered out of protocol).

require "set"

# The grader starts without RubyGems (--disable-gems: it costs more than a third of a run); the
# tests' test/unit and its power_assert are bundled gems, found where Debian installs them.
# Tests that require anything else get RubyGems first (main).
unless defined?(Gem)
  $LOAD_PATH.unshift(*Dir.glob("/usr/lib/ruby/gems/*/gems/{test-unit,power_assert}-*/lib").sort)
end

module VerdictGrader
  FAILED = 1
  BROKE = 2

  # Not a StandardError: a bare `rescue` in the tests cannot swallow it, and once raised every
  # later call raises it again.
  class ProgramBroke < Exception; end

  # An exception the program raised whose class Ruby does not have.
  class ProgramRaised < StandardError; end

  @broken = nil
  @raised = false
  @in = IO.for_fd(3, "rb", autoclose: false)
  @out = IO.for_fd(4, "wb", autoclose: false)
  @out.sync = true

  class << self
    attr_reader :broken, :raised

    def broke(why)
      @broken ||= why
      ProgramBroke.new(@broken)
    end

    def call(name, args)
      raise ProgramBroke, @broken if @broken
      begin
        @out.write("{\"call\":#{VerdictWire.encode_string(name)},\"args\":#{VerdictWire.encode(args)}}\n")
      rescue SystemCallError, IOError
        raise broke("the program stopped serving (it exited or closed its channel)")
      end
      line = @in.gets("\n", VerdictWire::LINE_MAX)
      unless line&.end_with?("\n")
        raise broke(line && line.bytesize >= VerdictWire::LINE_MAX ? "the program's answer is too long"
                    : "the program stopped serving (it exited or closed its channel)")
      end
      answer(line)
    end

    def answer(line)
      msg = VerdictWire.parse(line)
      if msg.size == 1 && msg.key?("ok")
        return VerdictWire.decode(msg["ok"])
      elsif msg.size == 2 && msg["raise"].instance_of?(String) && msg["message"].instance_of?(String)
        raise raised(msg["raise"], msg["message"])
      end
      raise broke("the program answered out of protocol")
    rescue VerdictWire::Error
      raise broke("the program answered with what is not a value")
    end

    # The program's exception, as Ruby's own class of that name where there is one (the tests
    # may expect it).
    def raised(name, message)
      @raised = true
      if name.match?(/\A[A-Z][A-Za-z0-9_]*\z/) && Object.const_defined?(name, false)
        cls = Object.const_get(name, false)
        if cls.is_a?(Class) && cls < StandardError
          begin
            return cls.new(message)
          rescue StandardError
            nil
          end
        end
      end
      ProgramRaised.new("#{name}: #{message}")
    end

    def define_entry(entry)
      return if entry.nil? || entry.empty?
      Object.class_eval do
        define_method(entry) { |*args| VerdictGrader.call(entry, args) }
        private entry
      end
    end

    def status(passed)
      return BROKE if @broken
      return 0 if passed
      @raised ? BROKE : FAILED
    end

    def main(tests, _setup, entry)
      wants = tests.scan(/^\s*require\s*\(?\s*["']([^"']+)["']/).flatten
      require "rubygems" if !defined?(Gem) && wants.any? { |f| !%w[test/unit json set].include?(f) }
      define_entry(entry)
      passed = true
      begin
        TOPLEVEL_BINDING.eval(tests, "tests", 1)
        if defined?(Test::Unit::AutoRunner)
          Test::Unit::AutoRunner.need_auto_run = false
          passed = Test::Unit::AutoRunner.run ? true : false
        end
      rescue SystemExit => e
        passed = e.success?
      rescue Exception => e # the checks failed on the answers, or the program broke a call
        passed = false
        $stderr.puts("#{e.class}: #{e.message}", *(e.backtrace || []).first(8))
      end
      $stderr.puts("verdict grader: #{@broken}") if @broken
      $stdout.flush
      $stderr.flush
      status(passed)
    end
  end
end

# Top-level names the tests call that nothing here defines: the program's functions.
class << TOPLEVEL_BINDING.receiver
  private

  def method_missing(name, *args)
    VerdictGrader.call(name.to_s, args)
  end
end

exit!(VerdictGrader.main(*ARGS))
