t = Thread.new { 6 * 7 }
puts t.value
