//! The review site's stylesheet and script, written once under `assets/` and linked from
//! every page (relative links, so the site works opened from `file://`).
//!
//! The script only reads the page: it sorts and filters the index table, links slang
//! and Cg lines through the line map on shader pages, and drives the old/new slider on
//! preset pages. It never fetches anything and never inserts text as markup (it only
//! toggles classes and attributes), so escaped source text stays text.

pub const CSS_PATH: &str = "assets/review.css";
pub const JS_PATH: &str = "assets/review.js";

pub const CSS: &str = r#"body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1d1f21;background:#fafafa}
header,main,footer{padding:8px 16px}
header{background:#263238;color:#eceff1}
header a{color:#80cbc4}
h1{font-size:18px;margin:4px 0}
h2{font-size:16px;margin:16px 0 6px}
table{border-collapse:collapse;background:#fff}
th,td{border:1px solid #cfd8dc;padding:2px 6px;text-align:left;vertical-align:top}
th{background:#eceff1;cursor:pointer;user-select:none}
th.sorted-asc::after{content:" \25b2"}
th.sorted-desc::after{content:" \25bc"}
.counts td,.counts th{text-align:right;cursor:default}
.filters{margin:8px 0;display:flex;gap:12px;flex-wrap:wrap;align-items:center}
.st-ok{color:#2e7d32}.st-warning{color:#e65100}.st-error,.bad{color:#c62828;font-weight:bold}
.v-pass{color:#2e7d32}.v-fail,.v-error{color:#c62828;font-weight:bold}
.b-changed,.b-new{color:#6a1b9a;font-weight:bold}.b-unreadable{color:#c62828;font-weight:bold}
tr.mismatch td{background:#ffebee}
tr.differs td.new{background:#fff8e1}
.diags{margin:4px 0;padding-left:20px}
.diag-error{color:#c62828}.diag-warning{color:#e65100}
.panes{display:grid;grid-template-columns:1fr 1fr;gap:8px;align-items:start}
.pane{position:relative;background:#fff;border:1px solid #cfd8dc;overflow:auto;max-height:85vh}
.pane h3{font-size:13px;margin:0;padding:4px 8px;background:#eceff1;position:sticky;top:0}
.code{font:12px/1.45 ui-monospace,Menlo,Consolas,monospace;white-space:pre;margin:0}
.ln{display:block;padding-right:8px}
.ln::before{content:attr(data-n);display:inline-block;width:4em;color:#90a4ae;text-align:right;margin-right:8px}
.ln.mapped,.ln[data-o]{cursor:pointer;box-shadow:inset 3px 0 #b3e5fc}
.ln.hl{background:#fff59d}.ln.sel{background:#ffe082}
.dmsg{display:block;white-space:pre-wrap;margin-left:4.5em;padding:1px 6px;font-size:12px}
.dmsg.diag-error{background:#ffebee}.dmsg.diag-warning{background:#fff3e0}
.hc{color:#6a737d;font-style:italic}.hp{color:#8e24aa}.hs{color:#2e7d32}.hn{color:#d84315}
.hk{color:#1565c0;font-weight:bold}.ht{color:#00838f}.hf{color:#5d4037}
.diff .add{background:#e8f5e9}.diff .del{background:#ffebee}.diff .hunk{color:#1565c0}
.images{display:flex;gap:8px;flex-wrap:wrap}
.images figure{margin:0}.images img{width:256px;height:auto;image-rendering:pixelated;border:1px solid #cfd8dc}
.passes{display:flex;gap:8px;flex-wrap:wrap}.passes figure{margin:0;padding:4px;border:2px solid transparent}
.passes img{display:block;width:128px;height:auto;image-rendering:pixelated;border:1px solid #cfd8dc}
.passes figure.divergent{border-color:#c62828}.passes figure.divergent figcaption{color:#c62828;font-weight:bold}
.slider{position:relative;display:inline-block;border:1px solid #cfd8dc}
.slider img{display:block;width:640px;max-width:90vw;height:auto;image-rendering:pixelated}
.slider .old{position:absolute;left:0;top:0;clip-path:inset(0 50% 0 0)}
.note{color:#546e7a}
"#;

pub const JS: &str = r##"(function(){
"use strict";
function q(s,r){return Array.prototype.slice.call((r||document).querySelectorAll(s));}
// Index: sorting and filtering.
var table=document.getElementById("rows");
if(table){
  var body=table.tBodies[0];
  q("th[data-col]",table).forEach(function(th,col){
    th.addEventListener("click",function(){
      var asc=!th.classList.contains("sorted-asc");
      q("th",table).forEach(function(h){h.classList.remove("sorted-asc","sorted-desc");});
      th.classList.add(asc?"sorted-asc":"sorted-desc");
      var num=th.dataset.type==="num";
      var rows=q("tr",body);
      rows.sort(function(a,b){
        var x=a.cells[col].dataset.sort||a.cells[col].textContent,y=b.cells[col].dataset.sort||b.cells[col].textContent;
        var c=num?(parseFloat(x)-parseFloat(y)):x.localeCompare(y);
        return asc?c:-c;});
      rows.forEach(function(r){body.appendChild(r);});
    });
  });
  var filters=q("[data-filter]");
  function apply(){
    var shown=0;
    q("tr",body).forEach(function(r){
      var ok=filters.every(function(f){
        var v=f.value.toLowerCase();
        if(!v)return true;
        var have=(r.dataset[f.dataset.filter]||"").toLowerCase();
        return f.tagName==="SELECT"?have===v:have.indexOf(v)>=0;});
      r.hidden=!ok; if(ok)shown++;});
    var n=document.getElementById("shown"); if(n)n.textContent=String(shown);
  }
  filters.forEach(function(f){f.addEventListener("input",apply);});
  apply();
}
// Shader page: the line map, both ways.
var slang=q(".ln[data-o]");
if(slang.length){
  var back={};
  slang.forEach(function(l){l.dataset.o.split(" ").forEach(function(id){(back[id]=back[id]||[]).push(l);});});
  q(".cg .ln").forEach(function(l){if(back[l.id])l.classList.add("mapped");});
  function lines(el){return el.dataset.o?el.dataset.o.split(" ").map(function(id){return document.getElementById(id);}).filter(Boolean):(back[el.id]||[]);}
  function mark(el,cls,on){[el].concat(lines(el)).forEach(function(x){x.classList.toggle(cls,on);});}
  q(".ln.mapped, .ln[data-o]").forEach(function(el){
    el.addEventListener("mouseenter",function(){mark(el,"hl",true);});
    el.addEventListener("mouseleave",function(){mark(el,"hl",false);});
    el.addEventListener("click",function(){
      q(".sel").forEach(function(x){x.classList.remove("sel");});
      mark(el,"sel",true);
      var other=lines(el)[0]; if(other)reveal(other);
      history.replaceState(null,"","#line="+el.id);});
  });
  // Scrolls a line into the middle of its own pane, never the window.
  function reveal(el){var pane=el.closest(".pane"); if(pane)pane.scrollTop=Math.max(0,el.offsetTop-pane.clientHeight/3);}
  // `#line=ID` (not `#ID`: the browser would scroll the window and the pane itself).
  var h=location.hash.replace(/^#line=/,""), start=h&&document.getElementById(h);
  if(start&&(start.dataset.o||back[start.id])){
    mark(start,"sel",true); reveal(start); var o=lines(start)[0]; if(o)reveal(o);
  }
}
// Preset page: old/new slider and flip.
q(".slider").forEach(function(s){
  var old=s.querySelector(".old"),range=s.parentNode.querySelector("input[type=range]"),flip=s.parentNode.querySelector("button.flip");
  function set(v){old.style.clipPath="inset(0 "+(100-v)+"% 0 0)";}
  if(range)range.addEventListener("input",function(){set(+range.value);});
  if(flip)flip.addEventListener("click",function(){range.value=+range.value>50?0:100;set(+range.value);});
});
document.body.dataset.ready="1";
})();
"##;
