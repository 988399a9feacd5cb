<?php
$hog = [];
while (true) {
    $hog[] = str_repeat("x", 1 << 20);
}
