package bad

func Bad() int {
	return "not an int"
}
