object Echo extends App { scala.io.Source.stdin.getLines().foreach(println) }
