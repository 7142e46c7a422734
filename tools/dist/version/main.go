// Command version prints sitegen's version (for the release archives' names).
package main

import (
	"fmt"

	"sitegen/pkg/build"
)

func main() { fmt.Println(build.Version) }
