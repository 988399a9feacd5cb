x=aaaaaaaaaaaaaaaa; while :; do x=$x$x; done
