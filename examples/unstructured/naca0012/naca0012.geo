// A structured O-mesh of quadrilaterals around the NACA 0012 airfoil (chord 1 from x = 0 to 1,
// the trailing edge closed by the thickness coefficient -0.1036 in place of -0.1015), for Gmsh:
//   gmsh -2 -setnumber cells 128 naca0012.geo -o naca0012_128.msh
// `cells` quadrilaterals around the airfoil and cells / 2 from it to the far field, a circle of
// radius 100 chords about the mid-chord, the radial spacing growing geometrically so that every
// level of the family (cells = 64, 128, 256, ...) halves the cells of the one before in both
// directions, as Vassberg and Jameson's family does. Along the airfoil the cells cluster at the
// leading and trailing edges. Physical names: "airfoil" (the wall), "farfield", "fluid".
DefineConstant[ cells = {128, Name "cells around the airfoil (a multiple of 4)"} ];
DefineConstant[ radius = {100.0, Name "far-field radius in chords"} ];

quarter = cells / 4;  // cells on each of the four airfoil arcs and far-field arcs
radial = cells / 2;   // cells from the airfoil to the far field
// The radial growth: 1.25 per cell at cells = 64, its square root at each doubling, so that the
// ratio over the whole radius stays 1.25^32.
growth = 1.25^(32 / radial);
// Along the airfoil: cells grow from the edges towards the mid-chord by this ratio per cell at
// cells = 64 (Progression r: each cell r times the one before it along the curve).
clustering = 1.1^(16 / quarter);

points = 200; // the points through which the airfoil's splines pass
For i In {0:points}
  x = 0.5 * (1 - Cos(Pi * i / points));
  y = 0.6 * (0.2969 * Sqrt(x) - 0.1260 * x - 0.3516 * x^2 + 0.2843 * x^3 - 0.1036 * x^4);
  upper[i] = newp; Point(upper[i]) = {x, y, 0};
  If (i == 0 || i == points)
    lower[i] = upper[i];
  Else
    lower[i] = newp; Point(lower[i]) = {x, -y, 0};
  EndIf
EndFor
half = points / 2; // x = 0.5 at i = points / 2

// Airfoil arcs, each from an edge to the mid-chord, so that the clustering grows from the edge.
upperFront = newc; Spline(upperFront) = upper[{0:half}];
upperBack = newc; Spline(upperBack) = upper[{points:half:-1}];
lowerFront = newc; Spline(lowerFront) = lower[{0:half}];
lowerBack = newc; Spline(lowerBack) = lower[{points:half:-1}];

centre = newp; Point(centre) = {0.5, 0, 0};
right = newp; Point(right) = {0.5 + radius, 0, 0};
top = newp; Point(top) = {0.5, radius, 0};
left = newp; Point(left) = {0.5 - radius, 0, 0};
bottom = newp; Point(bottom) = {0.5, -radius, 0};
farTopLeft = newc; Circle(farTopLeft) = {top, centre, left};
farTopRight = newc; Circle(farTopRight) = {top, centre, right};
farBottomLeft = newc; Circle(farBottomLeft) = {bottom, centre, left};
farBottomRight = newc; Circle(farBottomRight) = {bottom, centre, right};

// Radial lines, each from the airfoil outwards.
fromLeading = newc; Line(fromLeading) = {upper[0], left};
fromTrailing = newc; Line(fromTrailing) = {upper[points], right};
fromUpper = newc; Line(fromUpper) = {upper[half], top};
fromLower = newc; Line(fromLower) = {lower[half], bottom};

Transfinite Curve{upperFront, upperBack, lowerFront, lowerBack} = quarter + 1 Using Progression clustering;
Transfinite Curve{farTopLeft, farTopRight, farBottomLeft, farBottomRight} = quarter + 1;
Transfinite Curve{fromLeading, fromTrailing, fromUpper, fromLower} = radial + 1 Using Progression growth;

Curve Loop(1) = {upperFront, fromUpper, farTopLeft, -fromLeading};
Curve Loop(2) = {-upperBack, fromTrailing, -farTopRight, -fromUpper};
Curve Loop(3) = {-lowerFront, fromLeading, -farBottomLeft, -fromLower};
Curve Loop(4) = {lowerBack, fromLower, farBottomRight, -fromTrailing};
For s In {1:4}
  Plane Surface(s) = {s};
  Transfinite Surface{s};
  Recombine Surface{s};
EndFor

Physical Curve("airfoil") = {upperFront, upperBack, lowerFront, lowerBack};
Physical Curve("farfield") = {farTopLeft, farTopRight, farBottomLeft, farBottomRight};
Physical Surface("fluid") = {1:4};
