// Simulated time runs on forever: vvp spins on one CPU.
module tb;
  reg clk = 0;
  always #1 clk = ~clk;
endmodule
