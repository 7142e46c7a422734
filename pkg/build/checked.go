package build

import (
	"context"

	"sitegen/pkg/config"
	"sitegen/pkg/i18n"
	"sitegen/pkg/output"
	"sitegen/pkg/route"
)

// Checked is what sitegen check reads of a built site besides its output:
// the configuration, the route plan and the static files, and what
// rendering fell back on.
type Checked struct {
	Config        *config.Config
	Plan          *route.Plan
	Statics       map[string]bool
	StringMisses  []i18n.Miss // UI strings looked up in a locale that lacks them
	DataFallbacks [][2]string // locale and data set shown from the default locale
	// Out is the whole output, as a build writes it.
	Out *output.MemTree
}

// Check builds the site at opts.Source into memory the way a build writes
// it (load, Site.write), for sitegen check. A site with errors gives them
// all, as a build reports them.
func Check(ctx context.Context, opts Options) (*Checked, error) {
	site, errs := load(ctx, opts, nil)
	if site == nil {
		return nil, errs.Err()
	}
	defer site.Close()
	if errs.Errors() > 0 {
		return nil, site.errorsOnly(ctx, errs)
	}
	out := output.NewMemTree()
	if _, err := site.write(ctx, out); err != nil {
		return nil, err
	}
	return &Checked{Config: site.Config, Plan: site.plan, Statics: site.Statics, StringMisses: site.Catalog.Misses(),
		DataFallbacks: site.renderer.DataFallbacks(), Out: out}, nil
}
