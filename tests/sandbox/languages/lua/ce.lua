function broken(
end
