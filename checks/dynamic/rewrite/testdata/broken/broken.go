package broken

func F() int {
	return undefinedThing + 1
}
