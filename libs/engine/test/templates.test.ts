import { commonTemplate, templatesCited } from '../src/lineage/templates';

describe('templates a README says its project was generated from', () => {
  it('reads the repository cited with "bootstrapped with", "built with", "generated from", on the line or on a badge before it', () => {
    const cra =
      '# shop\n\nThis project was bootstrapped with [Create React App](https://github.com/facebook/create-react-app).\n\n## Scripts\n';
    expect(templatesCited([{ text: cra }])).toEqual(['facebook/create-react-app']);
    // reStructuredText badge: the link is on the `:target:` line, the words on `:alt:`.
    const rst = [
      'bureau',
      '======',
      '.. image:: https://img.shields.io/badge/built%20with-Cookiecutter%20Django-ff69b4.svg',
      '     :target: https://github.com/pydanny/cookiecutter-django/',
      '     :alt: Built with Cookiecutter Django',
      '',
      '.. image:: https://travis-ci.org/clairempr/bureau.svg?branch=master',
    ].join('\n');
    expect(templatesCited([{ text: rst }])).toEqual(['pydanny/cookiecutter-django']);
    const md =
      '[![Built with Cookiecutter Django](https://img.shields.io/badge/x.svg)](https://github.com/cookiecutter/cookiecutter-django/)';
    expect(templatesCited([{ text: md }])).toEqual(['cookiecutter/cookiecutter-django']);
    expect(templatesCited([{ text: 'Generated from the [go-service template](https://gitlab.com/acme/go-service).' }])).toEqual([
      'acme/go-service',
    ]);
  });

  it('needs the generating words and a repository', () => {
    expect(templatesCited([{ text: 'See https://github.com/facebook/create-react-app for more.' }])).toEqual([]);
    expect(templatesCited([{ text: 'Built with love in Berlin.' }])).toEqual([]);
  });

  it('is common when both sides cite it and it is neither side', () => {
    expect(commonTemplate(['a/starter', 'x/y'], ['a/starter'], new Set())).toBe('a/starter');
    expect(commonTemplate(['a/starter'], ['b/other'], new Set())).toBeNull();
    // A README citing its own repository next to "built with" names no template.
    expect(commonTemplate(['me/app'], ['me/app'], new Set(['me/app']))).toBeNull();
  });
});
