# The program's side of the grader's channel (runners/job.h: fd 3 in, fd 4 out), loaded after
# the program's own code as `verdict_host.rb`. It holds no secret and decides nothing: it
# answers the grader's calls, one per line (languages/wire.md), and the grader trusts nothing
# it says beyond the values it carries.
#   {"call":NAME,"args":[...]}  the program's top-level method NAME (a `def` at top level, or a
#                               lambda/proc in a global or constant of that name)
# The answer is {"ok":V} or {"raise":CLASS,"message":TEXT}.

module VerdictHost
  class << self
    def target(name)
      main = TOPLEVEL_BINDING.receiver
      return main.method(name) if main.respond_to?(name, true)
      raise NoMethodError, "undefined method `#{name}' for main:Object"
    end

    def answer(line)
      msg = VerdictWire.parse(line)
      unless msg.size == 2 && msg["call"].instance_of?(String) && msg["args"].instance_of?(Array)
        raise VerdictWire::Error, "not a call"
      end
      args = VerdictWire.decode(msg["args"])
      "{\"ok\":#{VerdictWire.encode(target(msg["call"]).call(*args))}}"
    rescue Exception => e # the program's SystemExit too: a call that did not return
      begin
        "{\"raise\":#{VerdictWire.encode_string(e.class.name.to_s)},\"message\":#{VerdictWire.encode_string(e.message.to_s[0, 2000].scrub)}}"
      rescue Exception
        "{\"raise\":\"Exception\",\"message\":\"\"}"
      end
    end

    def serve
      rin = IO.for_fd(3, "rb", autoclose: false)
      wout = IO.for_fd(4, "wb", autoclose: false)
      wout.sync = true
      while (line = rin.gets("\n", VerdictWire::LINE_MAX))
        out = answer(line)
        begin
          $stdout.flush
        rescue Exception
          nil
        end
        wout.write(out + "\n")
      end
    end
  end
end

VerdictHost.serve
