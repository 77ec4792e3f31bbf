package q
