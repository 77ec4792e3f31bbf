module example.com/cgomix

go 1.22
