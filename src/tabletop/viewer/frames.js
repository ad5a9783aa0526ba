// Pictures stored as a line table and edits, rebuilt as line numbers: shared by
// the viewer's script and the study's, which runs first on a study's page.
(function () {
  "use strict";
  var tabletop = window.tabletop = window.tabletop || {};

  // Every picture as line numbers: the first as stored, each later one by its edits.
  tabletop.framesOf = function (pictures) {
    var frames = [pictures.first];
    pictures.edits.forEach(function (edits) {
      var frame = frames[frames.length - 1].slice();
      for (var k = edits.length - 1; k >= 0; k--) {
        var e = edits[k];
        Array.prototype.splice.apply(frame, [e[0], e[1] - e[0]].concat(e[2]));
      }
      frames.push(frame);
    });
    return frames;
  };
})();
