C     A program whose loop is read from an INCLUDE file: the references
C     of body.h stand at its own lines, which main.f has too.
      PROGRAM INC
      REAL A(10), X, Y
      INTEGER I
      X = 1.0
      INCLUDE 'body.h'
      Y = X + 2.0
      PRINT *, Y
      END
