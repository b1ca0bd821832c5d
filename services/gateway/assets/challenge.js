// The case page's challenge button: prepares the EIP-712 challenge payload through the API
// (POST /api/v1/cases/{id}/challenge-preparation) and asks the user's wallet to sign it with
// eth_signTypedData_v4 when one is present (window.ethereum); otherwise it shows the payload to sign
// elsewhere. The page never holds a key. Without JavaScript the form posts to the server, which shows
// the payload.
(function () {
  'use strict';
  var form = document.getElementById('challenge-form');
  var out = document.getElementById('challenge-output');
  if (!form || !out) return;
  var caseId = form.getAttribute('data-case-id');
  if (!/^[0-9]{1,78}$/.test(caseId || '')) return;
  var wallet =
    typeof window.ethereum === 'object' && window.ethereum !== null && typeof window.ethereum.request === 'function'
      ? window.ethereum
      : null;
  var signButton = document.getElementById('wallet-sign');
  if (wallet && signButton) signButton.hidden = false;

  function show(title, body, isError) {
    var box = document.createElement('div');
    box.className = 'notice' + (isError ? ' notice-error' : '');
    var h = document.createElement('p');
    var strong = document.createElement('strong');
    strong.textContent = title;
    h.appendChild(strong);
    box.appendChild(h);
    if (body !== undefined) {
      var pre = document.createElement('pre');
      pre.className = 'payload';
      pre.tabIndex = 0;
      var code = document.createElement('code');
      code.textContent = body;
      pre.appendChild(code);
      box.appendChild(pre);
    }
    out.replaceChildren(box);
  }

  function prepare() {
    var body = {
      challenger: form.elements.challenger.value.trim(),
      rationale: form.elements.rationale.value.trim(),
    };
    var digest = form.elements.evidenceDigest.value.trim();
    if (digest) body.evidenceDigest = digest;
    return fetch('/api/v1/cases/' + caseId + '/challenge-preparation', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify(body),
    }).then(function (res) {
      return res.json().then(function (json) {
        if (!res.ok) {
          var e = json && json.error ? json.error : { code: 'INTERNAL', message: 'The request failed.' };
          var fields = (e.fields || [])
            .map(function (f) {
              return f.path + ': ' + f.issue;
            })
            .join('\n');
          throw { code: e.code, message: e.message, fields: fields };
        }
        return json;
      });
    });
  }

  /** eth_signTypedData_v4 wants the domain's type listed too. */
  function typedDataForWallet(t) {
    var types = {};
    Object.keys(t.types).forEach(function (k) {
      types[k] = t.types[k];
    });
    if (!types.EIP712Domain) {
      types.EIP712Domain = [
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ];
    }
    return { types: types, domain: t.domain, primaryType: t.primaryType, message: t.message };
  }

  function fail(err) {
    var msg = err && err.code ? err.code + ': ' + err.message : (err && err.message) || 'The request failed.';
    show(msg, err && err.fields ? err.fields : undefined, true);
  }

  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    show('Preparing the challenge…');
    prepare()
      .then(function (prep) {
        show(
          "Payload to sign with the challenger's wallet (EIP-712, eth_signTypedData_v4); relay the signature to " +
            prep.relay.function +
            ' on ' +
            prep.relay.contract +
            '. Digest ' +
            prep.digest +
            '.',
          JSON.stringify(prep.typedData, null, 2),
        );
      })
      .catch(fail);
  });

  if (wallet && signButton) {
    signButton.addEventListener('click', function () {
      if (!form.reportValidity()) return;
      show('Preparing the challenge…');
      var prepared;
      prepare()
        .then(function (prep) {
          prepared = prep;
          return wallet.request({ method: 'eth_requestAccounts' });
        })
        .then(function (accounts) {
          var challenger = prepared.typedData.message.challenger.toLowerCase();
          var account =
            (accounts || [])
              .map(function (a) {
                return String(a).toLowerCase();
              })
              .indexOf(challenger) >= 0
              ? challenger
              : null;
          if (!account)
            throw { code: 'WALLET', message: 'The wallet has no account with the challenger address; pick that account and try again.' };
          show('Asking your wallet to sign…');
          return wallet.request({
            method: 'eth_signTypedData_v4',
            params: [account, JSON.stringify(typedDataForWallet(prepared.typedData))],
          });
        })
        .then(function (signature) {
          show(
            'Signed. Relay this to ' + prepared.relay.function + ' on ' + prepared.relay.contract + ':',
            JSON.stringify({ signature: signature, message: prepared.typedData.message, digest: prepared.digest }, null, 2),
          );
        })
        .catch(fail);
    });
  }
})();
