<?php
while (true) {
}
