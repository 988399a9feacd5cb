<?php
function broken( {
}
