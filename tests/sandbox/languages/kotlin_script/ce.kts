val x: Int = "not an int"
