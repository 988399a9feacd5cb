// vvp's $finish_and_return ends the simulation with that exit status.
module tb;
  initial begin
    $display("failing");
    $finish_and_return(3);
  end
endmodule
