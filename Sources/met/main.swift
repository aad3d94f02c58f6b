print("met")
