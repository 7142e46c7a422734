//go:build enginesize

// Baseline for the engine binary-size comparison (see ../../README.md).
package main

import (
	"encoding/json"
	"fmt"
	"os"
)

func main() {
	b, _ := json.Marshal(os.Args)
	fmt.Println(string(b))
}
