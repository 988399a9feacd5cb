module tb;
  initial begin
    $display("hello");
    $finish;
  end
endmodule
