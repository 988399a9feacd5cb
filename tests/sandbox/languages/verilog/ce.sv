module tb;
  initial begin
    $display("hello")
  end
endmodule
