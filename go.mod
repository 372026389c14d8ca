module github.com/mahjong-authority/authority

go 1.26
