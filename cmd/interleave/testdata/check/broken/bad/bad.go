package bad

func Bad() int {
	return undefinedName
}
