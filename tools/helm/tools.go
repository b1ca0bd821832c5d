//go:build tools

// Package tools records the commands this module builds, so `go mod tidy`
// keeps their dependencies.
package tools

import (
	_ "github.com/helm-unittest/helm-unittest/cmd/helm-unittest"
	_ "helm.sh/helm/v3/cmd/helm"
)
