// The Node.js versions vmv runs on (issue 34), in one place: package.json's `engines` says the same
// (test/node-version.test.ts checks they agree). Written in ES5 so that any Node.js parses it.
'use strict';

/** The oldest Node.js vmv supports: 20.11 (import.meta.dirname; the oldest line CI still tests). */
var MINIMUM = [20, 11, 0];

/** The one line an older Node.js gets, or null when this one is supported. @param {string} version e.g. "18.20.4" */
function refusal(version) {
  var parts = String(version).split('.').map(Number);
  for (var i = 0; i < 3; i++) {
    if ((parts[i] || 0) > MINIMUM[i]) return null;
    if ((parts[i] || 0) < MINIMUM[i])
      return (
        'vmv needs Node.js ' +
        MINIMUM[0] +
        '.' +
        MINIMUM[1] +
        ' or newer (24 or 26 recommended); this is Node.js v' +
        version +
        '.'
      );
  }
  return null;
}

module.exports = { MINIMUM: MINIMUM, refusal: refusal };
