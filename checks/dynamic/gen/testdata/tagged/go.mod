module example.com/gentagged

go 1.24
