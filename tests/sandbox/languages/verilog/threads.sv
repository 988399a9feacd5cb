// Verilog's concurrency: two processes of one fork...join (vvp simulates them on one OS
// thread), the second waiting for the first's result.
module tb;
  integer answer = 0;
  event ready;
  initial begin
    fork
      begin
        #5 answer = 6 * 7;
        ->ready;
      end
      begin
        @(ready);
        $display("%0d", answer);
      end
    join
    $finish;
  end
endmodule
