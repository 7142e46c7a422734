//go:build enginesize

// The baseline plus modernc.org/quickjs evaluating one expression.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"modernc.org/quickjs"
)

func main() {
	b, _ := json.Marshal(os.Args)
	vm, err := quickjs.NewVM()
	if err != nil {
		panic(err)
	}
	defer vm.Close()
	v, err := vm.Eval("1+1", quickjs.EvalGlobal)
	fmt.Println(string(b), v, err)
}
