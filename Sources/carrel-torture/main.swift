// Placeholder: the crash-safety torture harness (issue 4) is being built here.
print("carrel-torture: not yet implemented")
