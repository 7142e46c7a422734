//go:build enginesize

// The baseline plus github.com/dop251/goja evaluating one expression.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/dop251/goja"
)

func main() {
	b, _ := json.Marshal(os.Args)
	v, err := goja.New().RunString("1+1")
	fmt.Println(string(b), v, err)
}
