print("errand-bench: not yet implemented")
