module realsuitedrv

go 1.25
