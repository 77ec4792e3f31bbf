module example.com/settle

go 1.22
