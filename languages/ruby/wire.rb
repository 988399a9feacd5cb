# verdict's typed wire in Ruby (languages/wire.md), for the grader (grader.rb) and the host
# (host.rb). Values are encoded by their base class's own methods, so a subclass's to_s,
# to_json or == never runs on the grader's side of the channel; decode parses with Ruby's
# standard json (no object creation, no additions) and then builds only plain values from
# exactly the wire's grammar: nil, true, false, Integer, Float, String, Array, Hash, Set. The
# host does not load `set` (the program would see it): a Set crosses only where it is loaded.

require "json"

module VerdictWire
  DEPTH = 100 # nesting levels a value may have
  LINE_MAX = 64 << 20 # bytes of one message

  class Error < StandardError; end

  module_function

  def encode(v, depth = 0)
    raise Error, "value nested too deeply" if depth > DEPTH
    d = depth + 1
    case v
    when nil then "null"
    when true then "true"
    when false then "false"
    when Integer then Integer.instance_method(:to_s).bind_call(v)
    when Float then encode_float(v)
    when String, Symbol then encode_string(v.is_a?(Symbol) ? Symbol.instance_method(:to_s).bind_call(v) : String.new(v))
    when Array then "[" + Array.instance_method(:map).bind_call(v) { |x| encode(x, d) }.join(",") + "]"
    when Hash
      pairs = Hash.instance_method(:map).bind_call(v) { |k, x| "[#{encode(k, d)},#{encode(x, d)}]" }
      "{\"map\":[" + pairs.join(",") + "]}"
    when Range then encode(Range.instance_method(:to_a).bind_call(v), depth)
    else
      raise Error, "a #{v.class} cannot cross to the grader" unless defined?(::Set) && v.is_a?(::Set)
      "{\"set\":[" + ::Set.instance_method(:map).bind_call(v) { |x| encode(x, d) }.join(",") + "]}"
    end
  end

  def encode_float(f)
    f = Float(f)
    return "{\"float\":\"nan\"}" if f.nan?
    return "{\"float\":\"#{f > 0 ? "inf" : "-inf"}\"}" if f.infinite?
    s = Float.instance_method(:to_s).bind_call(f) # shortest text that round-trips: 1.0, 1.0e+20
    s.include?(".") || s.include?("e") ? s : s + ".0"
  end

  def encode_string(s)
    s = s.encode(Encoding::UTF_8) unless s.encoding == Encoding::UTF_8
    raise Error, "a string that is not UTF-8 cannot cross to the grader" unless s.valid_encoding?
    JSON.generate(s, script_safe: false)
  end

  # One message's text (a line) into a Hash of the envelope's plain values.
  def parse(line)
    raise Error, "not a message" unless line.is_a?(String) && line.end_with?("\n")
    msg = JSON.parse(line.chomp.force_encoding(Encoding::UTF_8), max_nesting: 3 * DEPTH + 10,
                     allow_nan: false, create_additions: false, decimal_class: nil)
    raise Error, "a message is an object" unless msg.instance_of?(Hash)
    msg
  rescue JSON::ParserError, EncodingError, ArgumentError
    raise Error, "not JSON"
  end

  def decode(v, depth = 0)
    raise Error, "value nested too deeply" if depth > DEPTH
    d = depth + 1
    case v
    when nil, true, false, Integer, Float then v
    when String then v.valid_encoding? ? v : (raise Error, "not UTF-8")
    when Array then v.map { |x| decode(x, d) }
    when Hash
      raise Error, "not a value of the wire" unless v.size == 1
      k, x = v.first
      case k
      when "map"
        raise Error, "a map is a list of pairs" unless x.instance_of?(Array)
        h = {}
        x.each do |p|
          raise Error, "a map is a list of pairs" unless p.instance_of?(Array) && p.size == 2
          h[decode(p[0], d)] = decode(p[1], d)
        end
        h
      when "tuple"
        raise Error, "a tuple is a list" unless x.instance_of?(Array)
        x.map { |e| decode(e, d) }
      when "set"
        raise Error, "a set is a list" unless x.instance_of?(Array)
        items = x.map { |e| decode(e, d) }
        defined?(::Set) ? ::Set.new(items) : items
      when "char"
        raise Error, "a char is one character" unless x.instance_of?(String) && x.length == 1
        x
      when "float"
        { "nan" => Float::NAN, "inf" => Float::INFINITY, "-inf" => -Float::INFINITY }.fetch(x) do
          raise Error, "not a float"
        end
      else raise Error, "not a value of the wire"
      end
    else raise Error, "not a value of the wire"
    end
  end
end
