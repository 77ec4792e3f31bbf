module example.com/gencorpus

go 1.24
