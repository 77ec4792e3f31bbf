module maporder

go 1.25
