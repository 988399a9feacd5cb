// A dynamic array doubling in size, every element written.
module tb;
  byte hog[];
  initial begin
    hog = new[1024];
    forever begin
      hog = new[hog.size() * 2](hog);
      for (int i = hog.size() / 2; i < hog.size(); i += 4096)
        hog[i] = 8'hff;
    end
  end
endmodule
