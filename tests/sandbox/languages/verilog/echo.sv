// Copies stdin (vvp's STDIN descriptor, 32'h8000_0000) to stdout a character at a time.
module tb;
  integer c;
  initial begin
    c = $fgetc(32'h8000_0000);
    while (c != -1) begin
      $write("%c", c[7:0]);
      c = $fgetc(32'h8000_0000);
    end
    $finish;
  end
endmodule
