// Placeholder: the benchmark (issue 3) is being built here.
print("carrel-bench: not yet implemented")
