( echo 42 > /tmp/v ) & wait; cat /tmp/v
